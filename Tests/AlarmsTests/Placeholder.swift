// AlarmsTests
