"""hits: crowd tasks (HITs) for entity linking and name curation, with gold-item quality control."""
