"""xel: cross-language person-entity-linking test collections from parallel corpora."""

__version__ = "0.1.0"
