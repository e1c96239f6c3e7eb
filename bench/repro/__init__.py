"""Minimal plain-Textual apps that show a cost inside Textual (see docs/upstream/)."""
