import PushCore

extension LiveActivityContent {
    /// The topic of an app's Live Activity pushes: its bundle id with `.push-type.liveactivity`.
    public static func topic(bundleID: String) -> String { bundleID + ".push-type.liveactivity" }
}
