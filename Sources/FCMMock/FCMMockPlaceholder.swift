// Replaced by the mock's sources.
