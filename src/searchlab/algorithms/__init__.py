"""Layer 2: the search algorithms (reference tier and compiled tier). Imports core and domains."""
