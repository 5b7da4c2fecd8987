import Foundation
import Testing

@testable import ViewService

struct AccessTokenTests {
    private func directory() throws -> String {
        let path = NSTemporaryDirectory() + "uibus-view-token-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    @Test func theTokenIsMadeOnceOwnerOnlyAndKept() throws {
        let root = try self.directory()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let path = root + "/var/view-token"
        let token = try AccessToken.load(path)
        #expect(token.utf8.count == 64)
        let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        #expect(try AccessToken.load(path) == token)
        #expect(try AccessToken.load(root + "/other-token") != token)
    }

    @Test func aTokenFileOthersMayReadIsRefused() throws {
        let root = try self.directory()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let path = root + "/view-token"
        _ = try AccessToken.load(path)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: path)
        #expect(throws: ViewError.self) { try AccessToken.load(path) }
    }

    @Test func tokensMatchOnlyWhenEqual() {
        #expect(AccessToken.matches("abc", "abc"))
        #expect(!AccessToken.matches("abd", "abc"))
        #expect(!AccessToken.matches("ab", "abc"))
    }
}
