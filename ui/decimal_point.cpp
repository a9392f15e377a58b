#include "decimal_point.h"

#include <QLocale>
#include <clocale>

namespace poet::ui {

void useDecimalPoint() {
    std::setlocale(LC_NUMERIC, "C");
    QLocale::setDefault(QLocale::c());
}

}  // namespace poet::ui
