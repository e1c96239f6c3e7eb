"""End of Atlantis screen."""
