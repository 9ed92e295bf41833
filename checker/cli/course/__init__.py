"""What the command-line tools share: the specs, the paths, the terminal style."""
