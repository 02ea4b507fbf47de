"""Reading and writing grids: layouts, file records, the format table, atomic files."""
