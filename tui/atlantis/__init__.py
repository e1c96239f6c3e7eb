"""The Atlantis (Leo Colovini) screen."""
