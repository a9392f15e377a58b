#pragma once
// A budget: a slider for dragging, an exact entry box, a unit label and marks
// on the slider's scale (e.g. "min ≥ 1.2 MB" and "plain 2.45 MB"). Values are
// doubles in the budget's own unit (bytes, or a factor of the plain pass).
#include <QColor>
#include <QString>
#include <QWidget>
#include <functional>
#include <optional>
#include <vector>

class QSlider;
class QDoubleSpinBox;
class QLabel;

namespace poet::ui {

struct BudgetMark {
    double value = 0;
    QString label;
    QString tooltip;
    QColor color;
    // Where the strip has no room for every label: "min", "plain" (the
    // tooltip keeps the figure). Empty: the label as it is.
    QString short_label;
};

// Where the marks' labels go on a strip `strip_width` wide: each centred
// on its tick (`centres`), kept inside the strip, and moved aside from the
// labels placed before it so that at least `gap` separates each pair (1 px
// apart, "min ≥ 31.5 MB" and "plain 37.7 MB" read as one). Each label's
// left edge, in the order given.
std::vector<double> placeMarkLabels(const std::vector<double>& centres, const std::vector<double>& widths,
                                    double strip_width, double gap);

class BudgetMarkStrip;

class BudgetControl : public QWidget {
    Q_OBJECT
public:
    // `format` turns a value into the unit label text next to the box.
    explicit BudgetControl(QWidget* parent = nullptr);

    void setFormatter(std::function<QString(double)> format);
    // The unit label keeps the width of `longest` (its longest text), so the
    // slider does not change length under the pointer as the text does.
    void setUnitWidthFor(const QString& longest);
    void setSliderRange(double min, double max);  // the slider's scale
    // The box keeps `decimals`, and shows at least `shown_decimals` of them
    // (trailing zeros beyond are dropped: "1.50 x", "1.0005 x"); -1: all.
    void setEntryRange(double min, double max, int decimals, double step, const QString& suffix,
                       int shown_decimals = -1);
    // How the entry box reads what is typed into it, beyond its own numbers
    // (the RAM budget's "3MB" or "30%"): the value, or nothing for text that
    // is none (or not yet one, while it is typed).
    using EntryReader = std::function<std::optional<double>(const QString&)>;
    void setEntryReader(EntryReader read);
    void setMarks(std::vector<BudgetMark> marks);
    const std::vector<BudgetMark>& marks() const { return marks_; }
    void setValue(double v);  // no valueEdited signal
    double value() const { return value_; }
    double sliderMin() const { return min_; }
    double sliderMax() const { return max_; }
    QSlider* slider() const { return slider_; }
    QDoubleSpinBox* entry() const { return entry_; }
    QLabel* unitLabel() const { return unit_; }  // the formatter's text
    // The formatter's text again, for a formatter that reads more than the
    // value (the RAM budget's usable part depends on the graph).
    void refreshUnit();
    void setControlToolTips(const QString& tip);

    // x of a value along the slider, in this widget's coordinates (for the marks).
    double xForValue(double v) const;

signals:
    // The user changed the value. `session` groups one continuous drag (or a
    // burst of arrow-key steps) so undo can merge it into one step.
    void valueEdited(double value, int session);

private:
    int sliderPos(double v) const;
    double valueAt(int pos) const;

    void stepSession();  // the undo session of a key, wheel or groove step
    bool eventFilter(QObject* watched, QEvent* event) override;  // notes held keys and buttons

    QSlider* slider_;
    QDoubleSpinBox* entry_;
    QLabel* unit_;
    BudgetMarkStrip* strip_;
    std::function<QString(double)> format_;
    std::vector<BudgetMark> marks_;
    double min_ = 0, max_ = 1;
    double value_ = 0;
    int session_ = 0;
    bool dragging_ = false;
    bool updating_ = false;
    qint64 lastStepMs_ = 0;  // the last key, wheel or groove step (stepSession)
    bool keyRepeating_ = false;  // the key press being handled repeats a held key
    bool mouseHeld_ = false;     // a button is down on the slider or the box (its steps repeat)
};

}  // namespace poet::ui
