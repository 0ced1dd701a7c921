"""What every web area shares: the page language, forms and the presentation of results."""
