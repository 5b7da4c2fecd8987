import Bus
import BusSchema
import BusTestSupport
import Foundation
import Glibc
import Synchronization
import Testing

/// A proxy with CURVE on tcp (a free loopback port), on its own thread.
private final class CurveBus: Sendable {
    let context: ZMQContext
    let server: CurveKeyPair
    private let endpoints = Mutex<(publish: String, subscribe: String)?>(nil)
    private let denials = Atomic<UInt64>(0)
    private let stopFlag = Atomic<Bool>(false)
    private let finished = Atomic<Bool>(false)

    init(allowed: Set<String>) throws {
        self.context = try ZMQContext()
        let server = try CurveKeyPair.generate()
        self.server = server
        let config = BusConfig(publish: "tcp://127.0.0.1:*", subscribe: "tcp://127.0.0.1:*")
        let thread = Thread { [self] in
            do {
                let proxy = try BusProxy(
                    context: self.context, config: config, curve: CurveServerKeys(pair: server, allowed: allowed))
                try proxy.bind()
                let bound = try proxy.boundEndpoints()
                self.endpoints.withLock { $0 = bound }
                try proxy.run(healthIntervalMs: 100) {
                    self.denials.store(proxy.authentications.denied, ordering: .releasing)
                    return self.stopFlag.load(ordering: .acquiring)
                }
                proxy.close()
            } catch {
                FileHandle.standardError.write("curve proxy failed: \(error)\n".data(using: .utf8)!)
            }
            self.finished.store(true, ordering: .releasing)
        }
        thread.start()
        try waitUntil("proxy bound") {
            self.endpoints.withLock { $0 != nil } || self.finished.load(ordering: .acquiring)
        }
    }

    var publish: String { self.endpoints.withLock { $0?.publish ?? "" } }
    var subscribe: String { self.endpoints.withLock { $0?.subscribe ?? "" } }
    /// Handshakes the proxy's ZAP handler turned away.
    var denied: UInt64 { self.denials.load(ordering: .acquiring) }

    func keys(_ pair: CurveKeyPair) -> CurveClientKeys {
        CurveClientKeys(serverPublicKey: self.server.publicKey, pair: pair)
    }

    func stop() throws {
        self.stopFlag.store(true, ordering: .releasing)
        try waitUntil("proxy stopped") { self.finished.load(ordering: .acquiring) }
    }
}

@Suite struct CurveTests {
    @Test func onlyAllowedClientKeysGetMessagesAndOnlyTheirMessagesArrive() throws {
        let member = try CurveKeyPair.generate()
        let stranger = try CurveKeyPair.generate()
        let bus = try CurveBus(allowed: [member.publicKey])
        defer { try? bus.stop() }
        let context = bus.context
        let topic = try Topic("t/ok/")

        let listener = try Subscriber(
            context: context, endpoint: bus.subscribe, prefixes: ["t/"], curve: bus.keys(member))
        let eavesdropper = try Subscriber(
            context: context, endpoint: bus.subscribe, prefixes: ["t/"], curve: bus.keys(stranger))
        let plain = try Subscriber(context: context, endpoint: bus.subscribe, prefixes: ["t/"])
        let intruder = try Publisher(
            context: context, endpoint: bus.publish, name: "intruder", curve: bus.keys(stranger))
        let speaker = try Publisher(context: context, endpoint: bus.publish, name: "speaker", curve: bus.keys(member))

        // Both stranger sockets reach the handler and are turned away (libzmq retries, so at least two).
        try waitUntil("the stranger's handshakes denied") { bus.denied >= 2 }
        #expect(try speaker.waitForSubscriber(matching: topic, timeoutMs: 10_000))
        // The intruder never learns of a subscriber, so nothing it publishes can leave its socket.
        #expect(try !intruder.waitForSubscriber(matching: try Topic("t/evil/"), timeoutMs: 300))
        for index in 0..<20 {
            try intruder.publish(
                .map(["i": .int(Int64(index))]), schema: SchemaID("lifecycle", major: 1, minor: 0),
                on: try Topic("t/evil/"))
            try speaker.publish(
                .map(["i": .int(Int64(index))]), schema: SchemaID("lifecycle", major: 1, minor: 0), on: topic)
        }

        var topics: [String] = []
        try waitUntil("the member's 20 messages") {
            while let delivery = try listener.receive(timeoutMs: 0) { topics.append(delivery.topic) }
            return topics.count >= 20
        }
        #expect(topics == Array(repeating: "t/ok/", count: 20))
        #expect(listener.statistics.value(.gaps) == 0)
        // What the member got is long past the stranger and the keyless client: they have nothing.
        #expect(try eavesdropper.receive(timeoutMs: 200) == nil)
        #expect(try plain.receive(timeoutMs: 0) == nil)
        #expect(try listener.receive(timeoutMs: 200) == nil)
    }

    @Test func keysAreWrittenPrivateAndKeptWhenMadeAgain() throws {
        let directory = try ScratchDirectory.make("uibus-curve")
        defer { ScratchDirectory.remove(directory) }
        let keys = directory + "/keys"
        let written = try CurveKeyFiles.make(directory: keys, clients: ["host-a", "host-b"])
        #expect(written.count == 8)
        #expect(PrivateDirectory.permissions(of: keys) == 0o700)
        for name in ["server", "host-a", "host-b"] {
            #expect(PrivateDirectory.permissions(of: "\(keys)/\(name).secret") == 0o600)
            #expect(PrivateDirectory.permissions(of: "\(keys)/\(name).public") == 0o600)
        }
        let secret = try CurveKeyFiles.readKey(keys + "/host-a.secret", secret: true)
        let allowed = try CurveKeyFiles.readAllowList(keys + "/allowed_clients")
        #expect(allowed.contains(try CurveKeyPair(secretKey: secret).publicKey))
        #expect(allowed.count == 2)
        #expect(try CurveKeyFiles.make(directory: keys, clients: ["host-a"]).isEmpty)
        #expect(try CurveKeyFiles.readKey(keys + "/host-a.secret", secret: true) == secret)
    }

    @Test func anAllowListKeyMayHoldAHashWhileAHashLineThatIsNoKeyIsAComment() throws {
        let directory = try ScratchDirectory.make("uibus-curve")
        defer { ScratchDirectory.remove(directory) }
        let key = "0000#" + String(repeating: "0", count: 35)
        try "# hosts allowed\n\n\(key) host-a # the input host\n".write(
            toFile: directory + "/allowed", atomically: true, encoding: .utf8)
        #expect(try CurveKeyFiles.readAllowList(directory + "/allowed") == [key])
    }

    @Test func missingOpenOrMalformedKeyFilesAreRefusedNamingTheFile() throws {
        let directory = try ScratchDirectory.make("uibus-curve")
        defer { ScratchDirectory.remove(directory) }
        _ = try CurveKeyFiles.make(directory: directory + "/keys", clients: ["client"])
        let busFile = directory + "/bus.json"
        func config(_ curve: String) throws -> BusConfig {
            let json = #"{"publish": "tcp://127.0.0.1:1", "subscribe": "tcp://127.0.0.1:2", "curve": \#(curve)}"#
            try json.write(toFile: busFile, atomically: true, encoding: .utf8)
            return try BusConfig.load(busFile)
        }
        let good = try config(
            #"{"server_public_file": "keys/server.public", "client_secret_file": "keys/client.secret", "#
                + #""server_secret_file": "keys/server.secret", "allow_file": "keys/allowed_clients"}"#)
        #expect(
            try good.curveClient()?.pair.publicKey
                == CurveKeyFiles.readKey(directory + "/keys/client.public", secret: false))
        #expect(try good.curve?.serverKeys().allowed.count == 1)

        let missing = try config(
            #"{"server_public_file": "keys/nope.public", "client_secret_file": "keys/client.secret"}"#)
        #expect { try missing.curveClient() } throws: { "\($0)".contains("\(directory)/keys/nope.public: cannot read") }

        chmod(directory + "/keys/client.secret", 0o644)
        #expect { try good.curveClient() } throws: { "\($0)".contains("readable by others (mode 0644)") }
        chmod(directory + "/keys/client.secret", 0o600)

        try "not a key\n".write(toFile: directory + "/keys/allowed_clients", atomically: true, encoding: .utf8)
        #expect { try good.curve?.serverKeys() } throws: { "\($0)".contains("allowed_clients: line 1: 'not'") }

        let noClient = try config(#"{"server_public_file": "keys/server.public"}"#)
        #expect { try noClient.curveClient() } throws: { "\($0)".contains("'curve.client_secret_file' is not set") }
        #expect { try config(#"{"server_key": "x"}"#) } throws: { "\($0)".contains("unknown key 'curve.server_key'") }
        #expect { try config(#"{"server_public": "short"}"#) } throws: { "\($0)".contains("not a CURVE key") }
    }

    @Test func keyFilesAndAllowListsOthersMayWriteOrThatAreSymlinksAreRefused() throws {
        let directory = try ScratchDirectory.make("uibus-curve")
        defer { ScratchDirectory.remove(directory) }
        let keys = directory + "/keys"
        _ = try CurveKeyFiles.make(directory: keys, clients: ["client"])
        let allowList = keys + "/allowed_clients"
        #expect(try CurveKeyFiles.readAllowList(allowList).count == 1)

        chmod(allowList, 0o666)
        #expect { try CurveKeyFiles.readAllowList(allowList) } throws: {
            "\($0)".contains("\(allowList): the file may be written by others (mode 0666)")
        }
        // Making keys again must not quietly rewrite a list it refuses to read.
        #expect(throws: BusError.self) { try CurveKeyFiles.make(directory: keys, clients: ["other"]) }
        chmod(allowList, 0o600)

        chmod(keys, 0o777)
        #expect { try CurveKeyFiles.readAllowList(allowList) } throws: {
            "\($0)".contains("\(keys): the directory may be written by others (mode 0777)")
        }
        #expect { try CurveKeyFiles.readKey(keys + "/server.public", secret: false) } throws: {
            "\($0)".contains("directory may be written by others")
        }
        chmod(keys, 0o700)

        #expect(symlink(allowList, directory + "/linked_clients") == 0)
        #expect { try CurveKeyFiles.readAllowList(directory + "/linked_clients") } throws: {
            "\($0)".contains("symbolic link")
        }
        #expect(try CurveKeyFiles.readAllowList(allowList).count == 1)
        // Only root can hand a file to another user; elsewhere that half cannot be set up.
        guard geteuid() == 0 else { return }
        #expect(chown(allowList, 65534, 65534) == 0)
        #expect { try CurveKeyFiles.readAllowList(allowList) } throws: { "\($0)".contains("belongs to uid 65534") }
    }

    @Test func aServiceWhoseKeyFileIsMissingExitsAsAPermanentFailure() throws {
        let directory = try ScratchDirectory.make("uibus-curve")
        defer { ScratchDirectory.remove(directory) }
        let busFile = directory + "/bus.json"
        let json =
            #"{"publish": "tcp://127.0.0.1:1", "subscribe": "tcp://127.0.0.1:2", "curve": "#
            + #"{"server_public_file": "keys/server.public", "client_secret_file": "keys/client.secret"}}"#
        try json.write(toFile: busFile, atomically: true, encoding: .utf8)
        let (status, _, stderr) = try ChildProcess.run("gesture-recognizer", [], bus: busFile)
        #expect(status == 78)
        #expect(stderr.contains("\(directory)/keys/server.public: cannot read"))
    }
}
