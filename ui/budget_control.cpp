#include "budget_control.h"

#include <QDateTime>
#include <QDoubleSpinBox>
#include <QGridLayout>
#include <QHelpEvent>
#include <QKeyEvent>
#include <QLabel>
#include <QPainter>
#include <QRegularExpression>
#include <QSlider>
#include <QStyle>
#include <QStyleOptionSlider>
#include <QTimer>
#include <QToolTip>
#include <atomic>
#include <cmath>

namespace poet::ui {

namespace {
constexpr int kSteps = 1000;
std::atomic<int> g_session{0};
}  // namespace

// The entry box, reading typed text with the control's EntryReader where it
// has one (QDoubleSpinBox's own validator takes digits and its suffix only).
class ReadingSpinBox : public QDoubleSpinBox {
public:
    using QDoubleSpinBox::QDoubleSpinBox;
    BudgetControl::EntryReader read;

    QValidator::State validate(QString& text, int& pos) const override {
        if (!read) return QDoubleSpinBox::validate(text, pos);
        const QString body = withoutSuffix(text);
        const auto v = read(body);
        if (v && *v >= minimum() && *v <= maximum()) return QValidator::Acceptable;
        // "3", "3.", "3 M", "30 " may still grow into a budget; the box goes
        // back to its value if the text is left so.
        static const QRegularExpression partial(QStringLiteral(R"(^\s*[0-9.,eE+-]*\s*[A-Za-z%]*\s*$)"));
        return partial.match(body).hasMatch() ? QValidator::Intermediate : QValidator::Invalid;
    }
    int shown_decimals = -1;
    QString textFromValue(double v) const override {
        QString text = QDoubleSpinBox::textFromValue(v);
        const qsizetype point = text.indexOf(locale().decimalPoint());
        if (shown_decimals < 0 || point < 0) return text;
        while (text.size() - point - 1 > shown_decimals && text.endsWith(QLatin1Char('0'))) text.chop(1);
        return text;
    }
    double valueFromText(const QString& text) const override {
        if (!read) return QDoubleSpinBox::valueFromText(text);
        return read(withoutSuffix(text)).value_or(value());
    }
    // An arrow key or wheel step, not a value typed in.
    bool stepping = false;
    void stepBy(int steps) override {
        stepping = true;
        QDoubleSpinBox::stepBy(steps);
        stepping = false;
    }

private:
    // The box keeps its suffix (" B") after what is typed: "3MB B".
    QString withoutSuffix(const QString& text) const {
        return text.endsWith(suffix()) ? text.chopped(suffix().size()) : text;
    }
};

std::vector<double> placeMarkLabels(const std::vector<double>& centres, const std::vector<double>& widths,
                                    double strip_width, double gap)
{
    std::vector<double> lefts;
    for (std::size_t k = 0; k < centres.size(); ++k) {
        const double w = widths[k];
        double left = std::clamp(centres[k] - w / 2, 0.0, std::max(0.0, strip_width - w));
        for (std::size_t u = 0; u < lefts.size(); ++u) {
            const double u_left = lefts[u], u_right = lefts[u] + widths[u];
            if (left < u_right + gap && u_left < left + w + gap)  // too close: to the side with room
                left = u_right + gap <= strip_width - w ? u_right + gap : std::max(0.0, u_left - w - gap);
        }
        lefts.push_back(left);
    }
    return lefts;
}

// Draws the marks under the slider: a tick and a short label for each.
class BudgetMarkStrip : public QWidget {
public:
    explicit BudgetMarkStrip(BudgetControl* owner) : QWidget(owner), owner_(owner) {
        setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
    }
    QSize sizeHint() const override { return QSize(100, fontMetrics().height() + fontMetrics().height() / 2); }
    QSize minimumSizeHint() const override { return sizeHint(); }

protected:
    void paintEvent(QPaintEvent*) override {
        QPainter p(this);
        QFont f = font();
        p.setFont(f);
        const QFontMetricsF fm(f);
        std::vector<const BudgetMark*> shown;
        std::vector<double> centres;
        for (const auto& m : owner_->marks()) {
            if (m.value < owner_->sliderMin() || m.value > owner_->sliderMax()) continue;
            shown.push_back(&m);
            centres.push_back(owner_->xForValue(m.value) - pos().x());
        }
        // The labels, short ones where the full ones need more than the
        // strip (in a narrow window "min ≥ 262 kB" and "plain 2.45 MB" lay
        // one over the other), none where even those do: the ticks stay,
        // and their tooltips.
        std::vector<QString> labels;
        std::vector<double> widths;
        const auto measure = [&](bool short_form) {
            labels.clear();
            widths.clear();
            double needed = 0;
            for (const BudgetMark* m : shown) {
                labels.push_back(short_form && !m->short_label.isEmpty() ? m->short_label : m->label);
                widths.push_back(fm.horizontalAdvance(labels.back()));
                needed += widths.back() + (needed > 0 ? fm.height() : 0);
            }
            return needed <= width();
        };
        const bool labelled = measure(false) || measure(true);
        const std::vector<double> lefts = placeMarkLabels(centres, widths, width(), fm.height());
        for (std::size_t k = 0; k < shown.size(); ++k) {
            const QColor c = shown[k]->color.isValid() ? shown[k]->color : palette().color(QPalette::Text);
            p.setPen(QPen(c, std::max(1.0, fm.height() / 10.0)));
            p.drawLine(QPointF(centres[k], 0), QPointF(centres[k], fm.height() * 0.4));
            if (labelled)
                p.drawText(QRectF(lefts[k], fm.height() * 0.35, widths[k], fm.height()), Qt::AlignCenter, labels[k]);
        }
    }
    bool event(QEvent* e) override {
        if (e->type() == QEvent::ToolTip) {
            auto* he = static_cast<QHelpEvent*>(e);
            QString best;
            double bestD = 1e9;
            for (const auto& m : owner_->marks()) {
                const double d = std::abs(owner_->xForValue(m.value) - pos().x() - he->pos().x());
                if (d < bestD) {
                    bestD = d;
                    best = m.tooltip;
                }
            }
            if (!best.isEmpty()) QToolTip::showText(he->globalPos(), best, this);
            else QToolTip::hideText();
            return true;
        }
        return QWidget::event(e);
    }

private:
    BudgetControl* owner_;
};

BudgetControl::BudgetControl(QWidget* parent) : QWidget(parent) {
    slider_ = new QSlider(Qt::Horizontal, this);
    slider_->setRange(0, kSteps);
    slider_->setPageStep(kSteps / 20);
    entry_ = new ReadingSpinBox(this);
    entry_->setKeyboardTracking(false);
    entry_->setAccelerated(true);
    slider_->installEventFilter(this);
    entry_->installEventFilter(this);
    unit_ = new QLabel(this);
    setUnitWidthFor(QStringLiteral("000.00 MB"));
    strip_ = new BudgetMarkStrip(this);

    auto* grid = new QGridLayout(this);
    grid->setContentsMargins(0, 0, 0, 0);
    grid->setVerticalSpacing(0);
    grid->addWidget(slider_, 0, 0);
    grid->addWidget(strip_, 1, 0);
    grid->addWidget(entry_, 0, 1);
    grid->addWidget(unit_, 0, 2);
    grid->setColumnStretch(0, 1);

    connect(slider_, &QSlider::sliderPressed, this, [this] {
        dragging_ = true;
        session_ = ++g_session;
    });
    connect(slider_, &QSlider::sliderReleased, this, [this] { dragging_ = false; });
    connect(slider_, &QSlider::valueChanged, this, [this](int pos) {
        if (updating_) return;
        if (!dragging_) stepSession();  // keyboard / click on the groove
        value_ = valueAt(pos);
        updating_ = true;
        entry_->setValue(value_);
        updating_ = false;
        refreshUnit();
        emit valueEdited(value_, session_);
    });
    connect(entry_, &QDoubleSpinBox::valueChanged, this, [this](double v) {
        if (updating_) return;
        if (static_cast<ReadingSpinBox*>(entry_)->stepping) {
            stepSession();
        } else {
            // Typed and entered: a step of its own, which arrows right after
            // do not merge into (4 kB typed, then three arrows, left one
            // step, "RAM budget 7.00 kB", and the 4 kB was lost).
            session_ = ++g_session;
            lastStepMs_ = 0;
        }
        value_ = v;
        updating_ = true;
        slider_->setValue(sliderPos(v));
        updating_ = false;
        refreshUnit();
        emit valueEdited(value_, session_);
    });
}

// A held arrow key's repeats are one undo step with its press (they pushed
// one step each); presses, wheel turns and clicks under 0.3 s apart are one
// step too. Presses further apart are steps of their own: eight presses 0.6
// s apart, each waiting for its solve, were one step under a 0.7 s window,
// and one Ctrl+Z undid all eight.
void BudgetControl::stepSession() {
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    if (!keyRepeating_ && !mouseHeld_ && now - lastStepMs_ > 300) session_ = ++g_session;
    lastStepMs_ = now;
}

// A mouse button held on the slider's groove or a box's arrow repeats its
// step, the first repeat half a second after the press: one undo step from
// the press to the release, as a held key is.
bool BudgetControl::eventFilter(QObject* watched, QEvent* event) {
    switch (event->type()) {
    case QEvent::KeyPress:
        // Handled by the widget as soon as this returns; the flag is cleared after.
        keyRepeating_ = static_cast<QKeyEvent*>(event)->isAutoRepeat();
        if (keyRepeating_) QTimer::singleShot(0, this, [this] { keyRepeating_ = false; });
        break;
    case QEvent::MouseButtonPress:
        session_ = ++g_session;
        mouseHeld_ = true;
        break;
    case QEvent::MouseButtonRelease: mouseHeld_ = false; break;
    default: break;
    }
    return QWidget::eventFilter(watched, event);
}

void BudgetControl::setFormatter(std::function<QString(double)> format) {
    format_ = std::move(format);
    refreshUnit();
}

void BudgetControl::setControlToolTips(const QString& tip) {
    slider_->setToolTip(tip);
    entry_->setToolTip(tip);
    unit_->setToolTip(tip);
}

void BudgetControl::setUnitWidthFor(const QString& longest) {
    unit_->setMinimumWidth(unit_->fontMetrics().horizontalAdvance(longest));
}

void BudgetControl::setSliderRange(double min, double max) {
    min_ = min;
    max_ = std::max(max, min + 1e-12);
    updating_ = true;
    slider_->setValue(sliderPos(value_));
    updating_ = false;
    strip_->update();
}

void BudgetControl::setEntryRange(double min, double max, int decimals, double step, const QString& suffix,
                                  int shown_decimals) {
    updating_ = true;
    static_cast<ReadingSpinBox*>(entry_)->shown_decimals = shown_decimals;
    entry_->setDecimals(decimals);
    entry_->setRange(min, max);
    entry_->setSingleStep(step);
    entry_->setSuffix(suffix);
    entry_->setValue(value_);
    updating_ = false;
}

void BudgetControl::setEntryReader(EntryReader read) {
    static_cast<ReadingSpinBox*>(entry_)->read = std::move(read);
}

void BudgetControl::setMarks(std::vector<BudgetMark> marks) {
    marks_ = std::move(marks);
    strip_->update();
}

void BudgetControl::setValue(double v) {
    value_ = v;
    updating_ = true;
    entry_->setValue(v);
    slider_->setValue(sliderPos(v));
    updating_ = false;
    refreshUnit();
}

int BudgetControl::sliderPos(double v) const {
    const double f = (v - min_) / (max_ - min_);
    return static_cast<int>(std::lround(std::clamp(f, 0.0, 1.0) * kSteps));
}

double BudgetControl::valueAt(int pos) const {
    const double v = min_ + (max_ - min_) * pos / kSteps;
    const double step = entry_->decimals() == 0 ? 1.0 : std::pow(10.0, -entry_->decimals());
    return std::round(v / step) * step;
}

double BudgetControl::xForValue(double v) const {
    QStyleOptionSlider opt;
    opt.initFrom(slider_);
    opt.orientation = Qt::Horizontal;
    opt.minimum = slider_->minimum();
    opt.maximum = slider_->maximum();
    opt.sliderPosition = slider_->value();
    opt.sliderValue = slider_->value();
    const QRect groove = slider_->style()->subControlRect(QStyle::CC_Slider, &opt, QStyle::SC_SliderGroove, slider_);
    const QRect handle = slider_->style()->subControlRect(QStyle::CC_Slider, &opt, QStyle::SC_SliderHandle, slider_);
    const double span = groove.width() - handle.width();
    double f = std::clamp((v - min_) / (max_ - min_), 0.0, 1.0);
    // Right to left (-reverse, Arabic, Hebrew) the slider runs from the
    // right: the marks stood mirrored from their values.
    if (slider_->isRightToLeft()) f = 1 - f;
    return slider_->x() + groove.left() + handle.width() / 2.0 + f * span;
}

void BudgetControl::refreshUnit() {
    unit_->setText(format_ ? format_(value_) : QString());
}

}  // namespace poet::ui
