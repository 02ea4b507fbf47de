"""Tables, plots, markdown and HTML reports, result folders read back, two folders compared."""
