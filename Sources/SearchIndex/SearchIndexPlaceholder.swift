// Replaced by the SearchIndex module's real sources.
