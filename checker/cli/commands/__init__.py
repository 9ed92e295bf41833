"""One module per checker/run command (see ../main.py)."""
