"""Results tables: pivots of computed scores and statistics, written as CSV and Markdown."""
