"""The checker: a resolved spec -> the rule model (:mod:`compiler.model`), or every problem with it.

:mod:`.checker` builds the model and runs the analyses, each a module of its own with its
diagnostics: :mod:`.kinds`, :mod:`.types`, :mod:`.zones`, :mod:`.variables`, :mod:`.definitions`,
:mod:`.flow`, :mod:`.bounds`, :mod:`.termination`, :mod:`.worth`, :mod:`.deal`, :mod:`.hidden`,
:mod:`.notation`. It imports the front end and the model, never a later stage.
"""
