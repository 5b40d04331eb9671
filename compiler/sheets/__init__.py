"""Reference sheets: the rule model -> printable summaries in English, French, Dutch and Serbian.

The sheets are a back end of the compiler, fed by :class:`compiler.model.Rules`:

* :mod:`.plurals` -- CLDR plural categories (Serbian one/few/other, French 0 and 1 singular);
* :mod:`.tables` -- the per-language word tables in ``lang/*.yaml``;
* :mod:`.phrases` -- expression and effect nodes as sentence fragments (:func:`describe`);
* :mod:`.example` -- worked examples computed from the model (scoring, a purchase);
* :mod:`.content` -- the model -> a :class:`~.content.Sheet` of final text in one language;
* :mod:`.render` -- Markdown, HTML (A4 print CSS, fonts embedded) and PDF (WeasyPrint);
* :mod:`.lint` -- the E6xx checks of the tables and of variant texts (:func:`lint`).

``splendor-rules sheet SPEC... --lang en,fr,nl,sr --format md,html,pdf`` drives it; the
check pass calls ``compiler.sheets.lint.lint(rules)``.
"""

from .phrases import describe

__all__ = ["describe"]
