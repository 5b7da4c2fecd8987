extension Scene {
    /// The component a view hosts: its kind, its instance id and its settings (defaults filled in).
    public struct Component: Sendable, Hashable {
        /// Component kinds; each one's state schema is `state.<kind>`.
        public enum Kind: String, Sendable, Hashable, CaseIterable {
            case scrollView, pullToRefresh, pager, slideTable, drawer, numberPad, canvas, zoomView, memoBoard
        }

        /// The instance id: the `<instance>` topic segment and the state's `instance` field.
        public var id: String
        public var config: Config
        public var kind: Kind { self.config.kind }

        public init(id: String, config: Config) {
            self.id = id
            self.config = config
        }
    }

    /// A component's settings, one case per kind; only the settings its kind reads are accepted.
    public enum Config: Sendable, Hashable {
        case scrollView(ScrollView)
        case pullToRefresh(PullToRefresh)
        case pager(Pager)
        case slideTable(SlideTable)
        case drawer(Drawer)
        case numberPad(NumberPad)
        case canvas(Canvas)
        case zoomView(ZoomView)
        case memoBoard(MemoBoard)

        public var kind: Component.Kind {
            switch self {
            case .scrollView: .scrollView
            case .pullToRefresh: .pullToRefresh
            case .pager: .pager
            case .slideTable: .slideTable
            case .drawer: .drawer
            case .numberPad: .numberPad
            case .canvas: .canvas
            case .zoomView: .zoomView
            case .memoBoard: .memoBoard
            }
        }

        /// A scroll view (UIScrollView): content size, insets, paging, bouncing, deceleration, zoom.
        public struct ScrollView: Sendable, Hashable {
            /// Content size in points (the view's size by default).
            public var contentWidth: Double
            public var contentHeight: Double
            public var insetTop = 0.0
            public var insetLeft = 0.0
            public var insetBottom = 0.0
            public var insetRight = 0.0
            public var paging = false
            public var bounces = true
            /// Velocity kept per ms after release (UIKit's normal rate).
            public var decelerationRate = 0.998
            public var minScale = 1.0
            /// `minScale` by default (no zoom).
            public var maxScale = 1.0

            public init(contentWidth: Double, contentHeight: Double) {
                self.contentWidth = contentWidth
                self.contentHeight = contentHeight
            }
        }

        /// Labels a pull-to-refresh header or a pager shows; nil keeps the component's own text.
        public struct Labels: Sendable, Hashable {
            public var idle: String?
            public var pulling: String?
            public var release: String?
            public var refreshing: String?
            public var offline: String?

            public init() {}
        }

        /// A pull-to-refresh header over a scroll view.
        public struct PullToRefresh: Sendable, Hashable {
            /// The view whose pan drives the header (the header view's parent by default); nil
            /// when there is neither.
            public var scrollView: String?
            public var headerHeight = 60.0
            /// Pull past `headerHeight` + this to arm the refresh.
            public var thresholdMargin = 20.0
            /// Refreshing ends after this long without a `refresh_done` command.
            public var timeoutMs = 10_000.0
            /// The last-updated line's time zone, in minutes east of UTC.
            public var utcOffsetMin = 0.0
            public var labels = Labels()

            public init() {}
        }

        /// A SmartNews-style pager under a collapsing header.
        public struct Pager: Sendable, Hashable {
            public var pageCount = 1
            public var navHeight = 64.0
            public var menuHeight = 44.0
            /// How far a scroll moves the menu up over the navigation bar (a UINavigationBar's
            /// height; at most `navHeight`).
            public var barHeight = 44.0
            /// Pull distance in points that starts a load on release.
            public var pullThreshold = 120.0
            public var labels = Labels()

            public init() {}
        }

        /// A table of rows that slide aside to reveal their buttons.
        public struct SlideTable: Sendable, Hashable {
            /// The most rows (every state carries one offset per row).
            public static let maximumRows = 10_000
            public var rows = 0
            /// UITableView's default row height.
            public var rowHeight = 44.0
            public var openDurationMs = 200.0
            public var closeDurationMs = 100.0

            public init() {}
        }

        /// An edge-swipe drawer menu.
        public struct Drawer: Sendable, Hashable {
            public var edge = DrawerState.Side.left
            /// Menu width in points (the view's width by default).
            public var width: Double
            public var initiallyOpen = false

            public init(width: Double) {
                self.width = width
            }
        }

        /// A 10-key number pad (LKNumberPad).
        public struct NumberPad: Sendable, Hashable {
            public var layout = NumberPadState.Layout.standard
            public var enabled: Set<Int> = Set(0...9)
            /// Most time between the taps of one sequential string.
            public var sequenceWindowMs = 750.0

            public init() {}
        }

        /// A drawing canvas.
        public struct Canvas: Sendable, Hashable {
            public var strokeWidth = 4.0
            public var strokeColor = SceneColor.black
            /// The zoom view instance whose scale maps touches back to canvas points.
            public var zoomView: String?

            public init() {}
        }

        /// A zoomable image with overlays that hide while it moves.
        public struct ZoomView: Sendable, Hashable {
            public var minScale = 1.0
            public var maxScale = 4.0
            /// Image file path, relative to the repository root.
            public var image: String?
            /// Views that hide while zooming or dragging and show again after.
            public var overlays: [String] = []

            public init() {}
        }

        /// A FloatyMemo+-style memo board.
        public struct MemoBoard: Sendable, Hashable {
            /// The client name in memo commands (the instance id by default).
            public var client: String
            /// Background image path until the store's setting arrives.
            public var background: String?
            public var memoWidth = 160.0
            public var memoHeight = 120.0
            /// First resend delay of an unacknowledged command, and its cap (the delay doubles).
            public var retryInitialMs = 100.0
            public var retryMaxMs = 2000.0

            public init(client: String) {
                self.client = client
            }
        }
    }
}
