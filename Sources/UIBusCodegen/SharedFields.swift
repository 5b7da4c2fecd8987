/// Fields that every message adopting a protocol declares alike, generated once as a struct of
/// their own that each adopter stores as one property: a component state's instance, time and
/// input (``componentState``).
///
/// The adopters keep their wire order: the fields that open every adopter's map are visited
/// together (`visitLeading`), each other one where its adopter lists it (`visitInput`).
struct SharedFields {
    /// The protocol whose adopters share the fields; it forwards each field to ``property``.
    var adopters: String
    /// The generated struct holding the fields.
    var type: String
    /// The property each adopter stores the struct in.
    var property: String
    /// The payload keys, in the order the struct declares them.
    var keys: [String]
    var doc: String
    var propertyDoc: String
    /// The fields as every adopter declares them (set by ``TypeRegistry/share(_:)``).
    var properties: [Property] = []
    /// How many of ``properties`` open every adopter's map, in order.
    var leading = 0

    /// What every `state.<kind>` schema declares first (`instance`, `t_ms`) and somewhere after
    /// (`input`); each state's `animation` is described for its kind, so it stays with the kind.
    static var componentState: SharedFields {
        SharedFields(
            adopters: "ComponentStateMessage", type: "ComponentStateCommon", property: "common",
            keys: ["instance", "t_ms", "input"],
            doc: """
                What every component state carries, declared alike by each `state.<kind>` schema: the \
                instance, the time of the event that produced the state and the touch frame whose effect it \
                shows. ``ComponentStateMessage`` forwards each field, so a state reads `state.instance`.
                """,
            propertyDoc:
                "The instance, time and input every component state carries (forwarded as `instance`, `tMs`, `input`).")
    }

    static var all: [SharedFields] { [componentState] }

    /// The name of the method that visits `property` where its adopter lists it.
    func visitor(for property: Property) -> String {
        guard let index = self.keys.firstIndex(of: property.key) else {
            preconditionFailure("\(property.key): not a field of \(self.type)")
        }
        return index < self.leading
            ? "visitLeading" : "visit" + property.name.prefix(1).uppercased() + property.name.dropFirst()
    }
}

extension TypeRegistry {
    /// Moves `shared`'s fields out of the adopters of its protocol into one struct, after checking
    /// that every adopter declares each field, and declares it alike (documentation included).
    ///
    /// - Throws: ``CodegenError`` naming the schema that lacks a field or declares it otherwise.
    mutating func share(_ shared: SharedFields) throws {
        let adopters = self.structs.values.filter { $0.protocols.contains(shared.adopters) }.sorted {
            $0.name < $1.name
        }
        guard let first = adopters.first else { return }
        var shared = shared
        for adopter in adopters {
            for key in shared.keys {
                guard let property = adopter.properties.first(where: { $0.key == key }) else {
                    throw CodegenError(
                        "\(adopter.source): \(adopter.name) adopts \(shared.adopters) but does not declare '\(key)': "
                            + "declare it as \(first.source) does (\(shared.type) holds it for every adopter)")
                }
                guard property == first.properties.first(where: { $0.key == key }) else {
                    throw CodegenError(
                        "\(adopter.source): '\(key)' differs from its declaration in \(first.source): every "
                            + "\(shared.adopters) declares \(shared.keys.joined(separator: ", ")) alike, "
                            + "documentation included (\(shared.type) holds them once)")
                }
            }
        }
        shared.properties = shared.keys.compactMap { key in first.properties.first { $0.key == key } }
        shared.leading =
            shared.keys.indices.prefix { index in
                adopters.allSatisfy {
                    $0.properties.indices.contains(index) && $0.properties[index].key == shared.keys[index]
                }
            }.count
        for adopter in adopters { self.share(shared, with: adopter.name) }
    }
}
