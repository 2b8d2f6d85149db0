"""Layer 3: pictures of problems and searches (PNG). Imports core, domains, algorithms."""
