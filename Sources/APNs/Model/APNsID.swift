import Foundation
import PushSending

/// `apns-id` helpers: an apns-id is the relay's push id (`PushID`).
public enum APNsID {
    public static func random() -> UUID { PushID.random() }
}
