"""Play over SSH (``atlantis serve-ssh``) and a table server's lobby (``atlantis serve``)."""
