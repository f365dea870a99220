import Foundation

/// One APNs request to make: this payload to this device token.
public struct PlannedDelivery: Sendable, Hashable {
    public var userID: String
    public var deviceToken: DeviceToken
    public var payload: Data

    public init(userID: String, deviceToken: DeviceToken, payload: Data) {
        self.userID = userID
        self.deviceToken = deviceToken
        self.payload = payload
    }
}
