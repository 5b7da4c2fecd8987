/// A scene (schema `scene` v2, `deploy/scenes/*.json`): the screen's size in points, its views
/// with their frames and styling, the component each view hosts and the gesture recognizers
/// attached to each view.
///
/// The one reading of a scene: parsed and checked once (``init(json:file:)``), with every
/// default filled in here, and handed to the gesture recognizer, the component host and the
/// render worker, which each build what they run from it. Pure: no I/O.
public struct Scene: Sendable, Hashable {
    /// A label for people (`scene` when absent).
    public var name: String
    /// Screen size in points.
    public var width: Double
    public var height: Double
    /// Screen background.
    public var background: SceneColor
    /// Free text for people.
    public var description: String?
    /// Back to front (before `z` orders them).
    public var views: [View]

    /// The screen background when a scene names none.
    public static let defaultBackground = SceneColor.white

    /// A view: where it is, how it is styled, what it hosts and which recognizers it has.
    public struct View: Sendable, Hashable {
        /// Unique in the scene; the `<view>` topic segment of gesture events.
        public var id: String
        /// In scene points, absolute (not relative to the parent).
        public var frame: Frame
        /// The enclosing view: touches delivered to a view also reach its ancestors' recognizers.
        public var parent: String?
        /// Stacking order, higher on top; ties keep array order.
        public var z: Int
        public var background: SceneColor?
        /// Rounds the view's corners, its drop and inner shadows and its blur region.
        public var cornerRadius: Double
        /// A CALayer-style drop shadow.
        public var shadow: Shadow?
        /// A shadow cast inward from the view's edges (a recessed well).
        public var innerShadow: Shadow?
        /// A region blur of what lies behind the view (SABlurImageView).
        public var blur: Blur?
        public var component: Component?
        /// Disabled ones too (``Recognizer/enabled``): relationships may name them.
        public var recognizers: [Recognizer] = []
    }

    /// A shadow (CALayer's `shadowColor`, `shadowOpacity`, `shadowOffset`, `shadowRadius`).
    public struct Shadow: Sendable, Hashable {
        public var color: SceneColor
        public var opacity: Double
        /// In points; right and down are positive.
        public var offsetX: Double
        public var offsetY: Double
        /// Blur radius in points.
        public var radius: Double

        /// What a declared shadow has where it says nothing: a soft black shade straight below.
        public static let defaults = Shadow(color: .black, opacity: 0.25, offsetX: 0, offsetY: 0, radius: 3)
    }

    /// A region blur of what lies behind a view, through a rounded mask.
    public struct Blur: Sendable, Hashable {
        /// One of SABlurImageView's box-blur levels, or a Gaussian.
        public enum Radius: Sendable, Hashable {
            case level(Level)
            case gaussian(sigma: Double)
        }

        public enum Level: String, Sendable, Hashable, CaseIterable {
            case weak, `default`, strong
        }

        /// `.level(.default)` when the scene names neither.
        public var radius: Radius
        /// The mask's corner radius (the view's corner radius by default).
        public var cornerRadius: Double

    }

    /// A gesture recognizer attached to a view.
    public struct Recognizer: Sendable, Hashable {
        /// Unique in the scene; relationships refer to it.
        public var name: String
        public var kind: GestureEvent.Kind
        /// Every threshold, defaults filled in.
        public var settings: RecognizerSettings
        /// Names of recognizers that must fail before this one may begin or recognize.
        public var requireToFail: [String]
        /// Names of recognizers this one may recognize together with (the relation is symmetric).
        public var simultaneousWith: [String]
        /// Touches that begin outside this rectangle are not received.
        public var receiveRegion: Frame?
        /// When it begins or recognizes, the view's touch-down recognizers lose their touches.
        public var cancelsTouches: Bool
        /// Component instances that get its events; nil means the component of its own view.
        public var targets: [String]?
        /// False to load it disabled: the recognizer leaves it out.
        public var enabled: Bool

        public init(
            name: String, kind: GestureEvent.Kind, settings: RecognizerSettings? = nil, requireToFail: [String] = [],
            simultaneousWith: [String] = [], receiveRegion: Frame? = nil, cancelsTouches: Bool = true,
            targets: [String]? = nil, enabled: Bool = true
        ) {
            self.name = name
            self.kind = kind
            self.settings = settings ?? RecognizerSettings.defaults(for: kind)
            self.requireToFail = requireToFail
            self.simultaneousWith = simultaneousWith
            self.receiveRegion = receiveRegion
            self.cancelsTouches = cancelsTouches
            self.targets = targets
            self.enabled = enabled
        }
    }

    /// The view with `id`, if any.
    public func view(_ id: String) -> View? {
        self.views.first { $0.id == id }
    }
}
