// ZoneProperty.java - construction by name through a system property:
// java.time's ZoneRulesProvider builds the class the property
// java.time.zone.DefaultZoneRulesProvider names (Class.forName and
// newInstance inside java.base, its static initialiser run) before it
// casts, here a sun.* class the tool may not name, from a run-time
// string. Refused before it runs: System.setProperty is on the denylist
// (so are setProperties and getProperties, the live table).
public class ZoneProperty {
	public static void main(String[] args) {
		System.setProperty("java.time.zone.DefaultZoneRulesProvider",
		    "sun.security.provider." + "Sun");
		try {
			java.time.ZoneId.of("Europe/Paris").getRules();
			System.out.println("{\"built\":\"none\"}");
		} catch (Throwable t) {
			String m = String.valueOf(t.getMessage()) +
			    String.valueOf(t.getCause());
			System.out.println(m.contains("provider.Sun")
			    ? "{\"built\":\"sun.security.provider.Sun\"}"
			    : "{\"error\":\"" + t.getClass().getName() + "\"}");
		}
	}
}
