"""Plans as people and programs read them: text, JSON, markdown and SARIF, and the verdict over many."""

# a JSON document's "formatVersion": raised when a field changes meaning or goes away
JSON_FORMAT_VERSION = 1
