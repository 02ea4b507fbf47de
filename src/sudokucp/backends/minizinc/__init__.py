"""The minizinc backend; its models are sudokucp.encodings.mzn's."""
