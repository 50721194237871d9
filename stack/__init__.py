"""A stack file and the one program behind every shipped stack: the schema (config), which section
becomes which component (sections), and the program that wires them (program)."""
