"""Name knowledge in one place: how English names are normalized (`english`), and, one module
per script family, how names are written, inflected and transliterated in other scripts."""
