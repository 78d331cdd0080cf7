"""Reports of results: the text report and charts, the HTML pages, plots."""
