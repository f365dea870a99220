/// Apple's Key IDs and Team IDs: exactly 10 ASCII letters or digits.
enum APNsIdentifier {
    static func isValid(_ id: String) -> Bool {
        id.utf8.count == 10
            && id.utf8.allSatisfy { c in
                (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(c)
                    || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(c)
                    || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(c)
            }
    }

    static func validateKeyID(_ keyID: String) throws(APNsCredentialError) {
        guard isValid(keyID) else { throw .invalidKeyID(keyID) }
    }

    static func validateTeamID(_ teamID: String) throws(APNsCredentialError) {
        guard isValid(teamID) else { throw .invalidTeamID(teamID) }
    }
}
