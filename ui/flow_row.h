#pragma once
// A row of widgets that wraps onto more lines where the width is short, as
// words do: the Problem row (model, platform, batch, switches, time limit,
// gap, Solve) kept the window wider than a 1024-pixel screen, and than a
// 1280 x 720 projector at 125%. An item aligned right (Solve) sits at the
// right end of its line.
#include <QLayout>
#include <QList>

namespace poet::ui {

class FlowRow : public QLayout {
public:
    explicit FlowRow(QWidget* parent = nullptr);
    ~FlowRow() override;

    void addItem(QLayoutItem* item) override;
    int count() const override { return static_cast<int>(items_.size()); }
    QLayoutItem* itemAt(int index) const override { return items_.value(index); }
    QLayoutItem* takeAt(int index) override;

    Qt::Orientations expandingDirections() const override { return {}; }
    bool hasHeightForWidth() const override { return true; }
    int heightForWidth(int width) const override;
    QSize minimumSize() const override;  // the widest item: every item on a line of its own
    QSize sizeHint() const override;     // every item on one line
    void setGeometry(const QRect& rect) override;

private:
    // Lays the items out within `rect` (placing them where `place`); the height used.
    int arrange(const QRect& rect, bool place) const;
    int gap() const;

    QList<QLayoutItem*> items_;
};

}  // namespace poet::ui
