"""The checker: a resolved spec -> the rule model (:mod:`compiler.model`), or every problem with it.

:mod:`.build` is the driver (``build``: resolved spec -> Rules). It reads the sections through
the pass's state and readers (:mod:`.reader`), one module per section: :mod:`.tables` (colours,
kinds, the player-count table, values), :mod:`.decisions` and :mod:`.choices` (actions and
end-of-turn steps), :mod:`.setup`, :mod:`.ending` (end triggers, the ranking); :mod:`.sizes`
counts the engine's actions. The analyses are a module each with its diagnostics:
:mod:`.kinds`, :mod:`.types`, :mod:`.zones`, :mod:`.variables`, :mod:`.definitions`,
:mod:`.flow`, :mod:`.bounds`, :mod:`.termination`, :mod:`.worth`, :mod:`.deal`, :mod:`.hidden`,
:mod:`.notation`. It imports the front end and the model, never a later stage.
"""
