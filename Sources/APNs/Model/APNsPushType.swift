/// `apns-push-type`: what kind of notification the payload is. Must match the payload.
public enum APNsPushType: String, Sendable, Hashable, CaseIterable, Codable {
    case alert, background, complication, controls, fileprovider, liveactivity, location, mdm
    case pushtotalk, voip, widgets

    /// Largest payload APNs accepts for this push type (VoIP gets 5 KB, the rest 4 KB).
    public var maximumPayloadSize: Int { self == .voip ? 5120 : 4096 }
}

/// `apns-priority`.
public enum APNsPriority: Int, Sendable, Hashable, CaseIterable, Codable {
    /// Power-aware delivery.
    case low = 5
    /// Lowest; never wakes the device.
    case lowest = 1
    /// Immediate delivery (APNs' default).
    case immediate = 10
}
