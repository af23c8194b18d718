"""Name knowledge in one place: how English names are normalized (`english`), and, one module
per script family, how names are written, inflected and transliterated in other scripts.

`xel.names.families.family(lang)` gives the rules for a language's script; projection, triage
and the baseline ask it rather than keeping script tables of their own. The package imports
nothing itself, so any of its modules can be imported alone.
"""
