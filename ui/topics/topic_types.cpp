#include "ui/topics/topic_types.h"

#include <QLocale>

#include <cmath>

namespace cx::ui {

QString SelectionSpec::backgroundDescription() const {
    switch (backgroundMode) {
    case BackgroundMode::Rule:
        return backgroundRule;
    case BackgroundMode::NotForeground:
        return QStringLiteral("all documents not in the foreground");
    case BackgroundMode::All:
        return QStringLiteral("all documents");
    }
    return {};
}

cx::TopicModelOptions ModelParameters::toOptions() const {
    cx::TopicModelOptions options;
    options.numComponents = numComponents;
    options.iterations = iterations;
    options.restarts = restarts;
    options.seed = seed;
    options.decomposition = decomposition;
    return options;
}

QVector<double> parseGammaGrid(const QString& text, QString* error) {
    constexpr int kMaxPoints = 401;
    const auto fail = [&](const QString& problem) {
        if (error) {
            *error = problem;
        }
        return QVector<double>{};
    };
    const QString trimmed = text.trimmed();
    if (trimmed.isEmpty()) {
        return fail(QStringLiteral("the γ grid is empty"));
    }
    const QLocale c = QLocale::c();
    QVector<double> gammas;
    if (trimmed.contains(QLatin1Char(':'))) {
        const QStringList parts = trimmed.split(QLatin1Char(':'));
        if (parts.size() != 3) {
            return fail(QStringLiteral("expected start:stop:step, e.g. 0:10:0.25"));
        }
        bool ok[3] = {false, false, false};
        const double start = c.toDouble(parts[0].trimmed(), &ok[0]);
        const double stop = c.toDouble(parts[1].trimmed(), &ok[1]);
        const double step = c.toDouble(parts[2].trimmed(), &ok[2]);
        if (!ok[0] || !ok[1] || !ok[2]) {
            return fail(QStringLiteral("start, stop and step must be numbers"));
        }
        if (!(step > 0) || !std::isfinite(start) || !std::isfinite(stop)) {
            return fail(QStringLiteral("step must be positive and the bounds finite"));
        }
        if (start < 0 || stop < start) {
            return fail(QStringLiteral("need 0 ≤ start ≤ stop"));
        }
        const double count = std::floor((stop - start) / step + 1e-9) + 1;
        if (count > kMaxPoints) {
            return fail(QStringLiteral("too many points (%1; at most %2)")
                            .arg(static_cast<qint64>(count))
                            .arg(kMaxPoints));
        }
        for (int i = 0; i < static_cast<int>(count); ++i) {
            gammas << start + step * i;
        }
    } else {
        for (const QString& part : trimmed.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
            bool ok = false;
            const double value = c.toDouble(part.trimmed(), &ok);
            if (!ok || !std::isfinite(value) || value < 0) {
                return fail(QStringLiteral("'%1' is not a γ ≥ 0").arg(part.trimmed()));
            }
            gammas << value;
        }
        if (gammas.size() > kMaxPoints) {
            return fail(QStringLiteral("too many points (at most %1)").arg(kMaxPoints));
        }
        std::sort(gammas.begin(), gammas.end());
        gammas.erase(std::unique(gammas.begin(), gammas.end()), gammas.end());
    }
    if (gammas.isEmpty()) {
        return fail(QStringLiteral("the γ grid is empty"));
    }
    if (error) {
        error->clear();
    }
    return gammas;
}

} // namespace cx::ui
