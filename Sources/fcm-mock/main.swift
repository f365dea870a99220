// Replaced by the mock's command.
