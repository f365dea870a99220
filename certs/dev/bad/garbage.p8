this is not a key
