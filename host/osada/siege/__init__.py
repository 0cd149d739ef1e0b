"""Siege's host commands (the threat forecast: `osada forecast`)."""
