/// Events the server sends down a connection's pipeline from outside its event loop.
enum MockConnectionEvent: Sendable {
    /// The effective SETTINGS_MAX_CONCURRENT_STREAMS may have changed.
    case maxConcurrentStreamsChanged
}
