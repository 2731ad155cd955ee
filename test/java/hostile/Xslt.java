// Xslt.java - an XSLT stylesheet whose extension function calls
// java.lang.Runtime.exec: the reference is a string in data, which no
// check of the class files sees. The sandbox compiles and runs against
// java.base alone, so java.xml is not there to be used.
import java.io.StringReader;
import java.io.StringWriter;
import javax.xml.transform.TransformerFactory;
import javax.xml.transform.stream.StreamResult;
import javax.xml.transform.stream.StreamSource;

public class Xslt {
	static final String XSL = "<xsl:stylesheet version='1.0' "
	    + "xmlns:xsl='http://www.w3.org/1999/XSL/Transform' "
	    + "xmlns:rt='http://xml.apache.org/xalan/java/java.lang.Runtime'>"
	    + "<xsl:template match='/'><xsl:variable name='r' select='rt:getRuntime()'/>"
	    + "<xsl:value-of select=\"rt:exec($r, 'true')\"/>DENYLIST-BYPASSED"
	    + "</xsl:template></xsl:stylesheet>";

	public static void main(String[] args) throws Exception {
		StringWriter out = new StringWriter();
		TransformerFactory.newInstance()
		    .newTransformer(new StreamSource(new StringReader(XSL)))
		    .transform(new StreamSource(new StringReader("<a/>")),
		    new StreamResult(out));
		System.out.println(out);
	}
}
