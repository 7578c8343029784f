""" "Does it fit on my GPU?": the page of memory-curve answers and the family page section."""
