"""Plans as people and programs read them: text, JSON, markdown and SARIF, and the verdict over many."""
