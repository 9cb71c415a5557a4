"""Writes the bench's order rows (a CSV) as XLSX with the real openpyxl and XlsxWriter.

Usage: python3 bench/xlsx_producers.py ORDERS.csv OUT_DIR
Writes OUT_DIR/orders_openpyxl.xlsx and OUT_DIR/orders_xlsxwriter.xlsx. The Qty, Unit Price and
Total columns (5-7) are numbers, prices formatted 0.00, as an ERP export writes them.
"""
import csv
import sys

import openpyxl
import xlsxwriter

NUMBER_COLUMNS = (4, 5, 6)


def typed(rows):
    for i, row in enumerate(rows):
        if i == 0:
            yield row
            continue
        yield [
            (int(c) if k == 4 else float(c)) if k in NUMBER_COLUMNS else c
            for k, c in enumerate(row)
        ]


def main(src, out):
    with open(src, newline="", encoding="utf-8-sig") as f:
        rows = list(csv.reader(f))

    # openpyxl (the default, not write-only, workbook): text as inline strings, r on every cell.
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Orders"
    for r, row in enumerate(typed(rows), start=1):
        ws.append(row)
        if r > 1:
            for k in (5, 6):
                ws.cell(row=r, column=k + 1).number_format = "0.00"
    wb.save(f"{out}/orders_openpyxl.xlsx")

    # XlsxWriter: text in shared strings, a style on every cell.
    wb = xlsxwriter.Workbook(f"{out}/orders_xlsxwriter.xlsx")
    ws = wb.add_worksheet("Orders")
    plain = wb.add_format({"border": 1})
    money = wb.add_format({"border": 1, "num_format": "0.00"})
    for r, row in enumerate(typed(rows)):
        for k, value in enumerate(row):
            ws.write(r, k, value, money if r > 0 and k in (5, 6) else plain)
    wb.close()


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
