// Placeholder until the recognizers land.
