/// A ``GestureScene`` compiled for the arena: recognizers in scene order with their view, and
/// relationships resolved to indices.
///
/// A class, though immutable: every arena holds the plan and the hot loop takes it in hand each
/// frame, and copying a struct of seven arrays retained each of them (a visible share per frame).
final class ScenePlan: Sendable {
    struct Entry: Sendable {
        var spec: GestureScene.Recognizer
        var view: Int
    }

    let scene: GestureScene
    let entries: [Entry]
    /// For each recognizer, the recognizers that must fail before it may begin or recognize.
    let requireToFail: [[Int]]
    /// Row-major `count × count`: whether two recognizers may recognize together.
    private let simultaneous: [Bool]
    private let recognizersByView: [[Int]]
    private let parents: [Int?]
    /// View indices in hit-test order: highest `z` first, then later in the array first.
    private let hitOrder: [Int]
    /// Each recognizer's view id and name, as every gesture event carries them.
    private let viewIDs: [String]
    let names: [String]

    init(_ scene: GestureScene) {
        self.scene = scene
        var entries: [Entry] = []
        var byView: [[Int]] = []
        for (viewIndex, view) in scene.views.enumerated() {
            var indices: [Int] = []
            for recognizer in view.recognizers {
                indices.append(entries.count)
                entries.append(Entry(spec: recognizer, view: viewIndex))
            }
            byView.append(indices)
        }
        self.entries = entries
        self.recognizersByView = byView
        var indexByName: [String: Int] = [:]
        for (index, entry) in entries.enumerated() where indexByName[entry.spec.name] == nil {
            indexByName[entry.spec.name] = index
        }
        self.requireToFail = entries.map { $0.spec.requireToFail.compactMap { indexByName[$0] } }
        let count = entries.count
        var simultaneous = [Bool](repeating: scene.allSimultaneous, count: count * count)
        for (index, entry) in entries.enumerated() {
            for name in entry.spec.simultaneousWith {
                guard let other = indexByName[name] else { continue }
                simultaneous[index * count + other] = true
                simultaneous[other * count + index] = true
            }
        }
        self.simultaneous = simultaneous
        var viewIndexByID: [String: Int] = [:]
        for (index, view) in scene.views.enumerated() { viewIndexByID[view.id] = index }
        self.parents = scene.views.map { view in view.parent.flatMap { viewIndexByID[$0] } }
        self.viewIDs = entries.map { scene.views[$0.view].id }
        self.names = entries.map(\.spec.name)
        self.hitOrder = scene.views.indices.sorted { a, b in
            scene.views[a].z != scene.views[b].z ? scene.views[a].z > scene.views[b].z : a > b
        }
    }

    var count: Int { self.entries.count }

    func isSimultaneous(_ a: Int, _ b: Int) -> Bool { self.simultaneous[a * self.count + b] }

    func viewID(of recognizer: Int) -> String { self.viewIDs[recognizer] }

    /// The recognizers that receive a touch beginning at (x, y), in scene order.
    ///
    /// UIKit hit-testing: the touch goes to the topmost view containing the point and to its
    /// ancestors; a recognizer of one of those views receives it unless the point lies outside its
    /// receive region (`gestureRecognizer(_:shouldReceive:)` returning false).
    func receivers(x: Double, y: Double, into result: inout [Int]) {
        result.removeAll(keepingCapacity: true)
        guard let hit = self.hitOrder.first(where: { self.scene.views[$0].frame.contains(x: x, y: y) }) else { return }
        var chain: [Int] = []
        var view: Int? = hit
        while let current = view, !chain.contains(current) {
            chain.append(current)
            view = self.parents[current]
        }
        for viewIndex in chain.sorted() {
            for recognizer in self.recognizersByView[viewIndex] {
                if let region = self.entries[recognizer].spec.receiveRegion, !region.contains(x: x, y: y) { continue }
                result.append(recognizer)
            }
        }
    }

    /// The touch-down recognizers of the view `recognizer` is attached to.
    func touchDownSiblings(of recognizer: Int) -> [Int] {
        self.recognizersByView[self.entries[recognizer].view].filter {
            $0 != recognizer && self.entries[$0].spec.kind == .touchDown
        }
    }
}
