#include "figure_text.h"

#include <QRegularExpression>

namespace poet::ui {

QString keepFiguresWhole(const QString& text) {
    static const QRegularExpression figure_then_unit(
        QStringLiteral("(\\d) (?=(?:[kMG]?B|[m\u00B5]?[Js]|%)(?![A-Za-z]))"));
    QString kept = text;
    kept.replace(figure_then_unit, QStringLiteral("\\1\u00A0"));
    return kept;
}

QFont withoutLigatures(QFont font) {
    font.setStyleStrategy(QFont::PreferNoShaping);  // Latin text needs no shaping; ligatures are shaping
    return font;
}

QString switchesOffText(const ProblemOptions& options) {
    if (!options.paging && !options.remat) return QStringLiteral("no paging, no recomputation");
    if (!options.paging) return QStringLiteral("no paging");
    if (!options.remat) return QStringLiteral("no recomputation");
    return {};
}

}  // namespace poet::ui
