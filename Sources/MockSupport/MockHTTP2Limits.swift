import NIOHTTP2

/// NIO's HTTP/2 configuration for a mock: the SETTINGS it announces, and NIO's denial-of-service
/// limits lifted. A mock serves test clients that reset, retry and ping a lot on purpose: limits
/// tuned for public servers must not be what a test trips over.
package enum MockHTTP2Limits {
    package static func connectionConfiguration(initialSettings: HTTP2Settings) -> NIOHTTP2Handler.ConnectionConfiguration {
        var connection = NIOHTTP2Handler.ConnectionConfiguration()
        connection.initialSettings = initialSettings
        connection.maximumConnectionGlitches = 1_000_000
        connection.maximumRecentlyResetStreams = 10_000
        connection.controlFrameRateLimit.maximumCount = 1_000_000
        return connection
    }

    package static var streamConfiguration: NIOHTTP2Handler.StreamConfiguration {
        var stream = NIOHTTP2Handler.StreamConfiguration()
        stream.streamResetFrameRateLimit.maximumCount = 1_000_000
        stream.streamErrorRateLimit.maximumCount = 1_000_000
        return stream
    }
}
