import BusSchema

/// The part of a scene (schema `scene` v1) the gesture recognizer needs: the screen size, the views
/// with their frames and stacking, and the recognizers attached to each view with their settings
/// and relationships.
public struct GestureScene: Sendable, Hashable {
    public struct View: Sendable, Hashable {
        public var id: String
        public var frame: Rect
        /// The enclosing view: touches delivered to a view also reach its ancestors' recognizers.
        public var parent: String?
        /// Stacking order, higher on top; ties keep array order.
        public var z: Int
        public var recognizers: [Recognizer]

        public init(id: String, frame: Rect, parent: String? = nil, z: Int = 0, recognizers: [Recognizer] = []) {
            self.id = id
            self.frame = frame
            self.parent = parent
            self.z = z
            self.recognizers = recognizers
        }
    }

    public struct Recognizer: Sendable, Hashable {
        /// Unique in the scene; relationships refer to it.
        public var name: String
        public var kind: GestureEvent.Kind
        public var settings: RecognizerSettings
        /// Names of recognizers that must fail before this one may begin or recognize.
        public var requireToFail: [String]
        /// Names of recognizers this one may recognize together with (the relation is symmetric).
        public var simultaneousWith: [String]
        /// Touches that begin outside this rectangle are not received.
        public var receiveRegion: Rect?
        /// When it begins or recognizes, the view's touch-down recognizers lose their touches.
        public var cancelsTouches: Bool

        public init(
            name: String, kind: GestureEvent.Kind, settings: RecognizerSettings? = nil, requireToFail: [String] = [],
            simultaneousWith: [String] = [], receiveRegion: Rect? = nil, cancelsTouches: Bool = true
        ) {
            self.name = name
            self.kind = kind
            self.settings = settings ?? RecognizerSettings.defaults(for: kind)
            self.requireToFail = requireToFail
            self.simultaneousWith = simultaneousWith
            self.receiveRegion = receiveRegion
            self.cancelsTouches = cancelsTouches
        }
    }

    public var width: Double
    public var height: Double
    /// Back to front.
    public var views: [View]
    /// Every pair of recognizers may recognize together (the no-scene default).
    public var allSimultaneous: Bool

    public init(width: Double, height: Double, views: [View], allSimultaneous: Bool = false) {
        self.width = width
        self.height = height
        self.views = views
        self.allSimultaneous = allSimultaneous
    }

    /// The scene used when none is given: one full-screen view `screen` with every standard
    /// recognizer, all allowed to recognize simultaneously and none cancelling touches. Swipes
    /// accept all four directions and edge pans all four edges.
    public static func standard(width: Double = 100_000, height: Double = 100_000) -> GestureScene {
        let recognizers = GestureEvent.Kind.allCases.map { kind in
            var settings = RecognizerSettings.defaults(for: kind)
            settings.directions = Set(GestureEvent.Direction.allCases)
            settings.edges = Set(GestureEvent.Edge.allCases)
            return Recognizer(name: kind.rawValue, kind: kind, settings: settings, cancelsTouches: false)
        }
        let view = View(id: "screen", frame: Rect(x: 0, y: 0, width: width, height: height), recognizers: recognizers)
        return GestureScene(width: width, height: height, views: [view], allSimultaneous: true)
    }
}
