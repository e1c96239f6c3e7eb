"""The Survive: Escape from Atlantis screen."""
