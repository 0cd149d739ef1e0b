"""Osada host tool: the PC side of the project (CLI, scenario runner, MicroPython VM bridge)."""
