extension Duration {
    /// Whole milliseconds (truncated), as Unix-ms arithmetic wants them.
    public var milliseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1000 + attoseconds / 1_000_000_000_000_000
    }
}
