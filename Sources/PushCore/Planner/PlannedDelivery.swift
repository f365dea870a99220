import Foundation

/// One request to make: this payload to this device token (an APNs payload, or FCM's `data` map).
public struct PlannedDelivery: Sendable, Hashable {
    public var userID: String
    public var deviceToken: DeviceToken
    public var payload: Data
    /// Where `payload` repeats its event's shared bytes (`PushPlan.sharedPayload`).
    public var sharedSpans: [SharedSpan]

    public init(userID: String, deviceToken: DeviceToken, payload: Data, sharedSpans: [SharedSpan] = []) {
        self.userID = userID
        self.deviceToken = deviceToken
        self.payload = payload
        self.sharedSpans = sharedSpans
    }
}
